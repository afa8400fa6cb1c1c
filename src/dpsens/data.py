"""The data sets that ship with the book.

Chapter: *Introduction* (where the data come from); used by *Local
sensitivity*, *Propose-test-release*, *Smooth sensitivity* and *Sample and
aggregate*.

The UCI Adult data (Becker & Kohavi, 1996; CC BY 4.0) live in ``data/adult/``
at the top of the repository.  A wheel or a plain ``pip install .`` carries
them inside the package (``dpsens/bookdata/``, mapped from ``data/`` in
``pyproject.toml``); an editable install reads ``data/`` itself.
:func:`data_dir` finds whichever is there from the package, so the loaders work
however the package is installed and from any working directory (Binder, a
Colab clone, a lab machine), with no network access.
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

__all__ = ["ADULT_COLUMNS", "N_AGES", "data_dir", "load_adult", "load_ages"]

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "income",
]
#: Number of records of the Adult training data, so of :func:`load_ages` (the ``n`` of the
#: chapters *Propose-test-release*, *Smooth sensitivity* and *Sample and aggregate*, and of
#: their exercise checkers, which must not load the data to know it).
N_AGES = 32561
_INT_COLUMNS = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
_FILES = {"train": "adult.data", "test": "adult.test"}


def data_dir() -> Path:
    """Return the folder that holds the book's data.

    Chapter: *Introduction* (how to run the book: the data ship with it).

    The environment variable ``DPSENS_DATA`` wins if set; otherwise the
    copy installed inside the package (``dpsens/bookdata``, from a wheel or
    ``pip install .``), then the ``data/`` folder of the repository an
    editable install (``pip install -e .``) points at.

    Raises
    ------
    FileNotFoundError
        If no such folder exists, with instructions.
    """
    env = os.environ.get("DPSENS_DATA")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve().parent
    candidates += [here / "bookdata", here.parents[1] / "data"]
    for c in candidates:
        if (c / "adult").is_dir():
            return c
    raise FileNotFoundError(
        "could not find the book's data folder (looked in: "
        + ", ".join(str(c) for c in candidates)
        + "). Install the package from the book's repository (`pip install .` or "
        "`pip install -e .` in a clone), or set DPSENS_DATA to the repository's data/ folder."
    )


def load_adult(split: str = "train") -> pd.DataFrame:
    """Load the UCI Adult data as a DataFrame with the UCI column names.

    Chapter: *Local sensitivity* (the ages), *Propose-test-release*.

    Parameters
    ----------
    split : {"train", "test"}
        ``"train"`` reads ``adult.data`` (32,561 rows); ``"test"`` reads
        ``adult.test`` (16,281 rows; its income labels lose their trailing dot
        so both splits use ``"<=50K"`` and ``">50K"``).

    Returns
    -------
    pandas.DataFrame
        Integer columns as ``int64``; text columns as ``category``; missing
        values (``?`` in the files) as missing.

    Raises
    ------
    TypeError
        If ``split`` is not a string.
    ValueError
        If ``split`` is not ``"train"`` or ``"test"``.

    Examples
    --------
    >>> adult = load_adult()
    >>> adult.shape
    (32561, 15)
    >>> round(float(adult["age"].mean()), 2)
    38.58
    """
    if not isinstance(split, str):
        raise TypeError(f"split must be the string 'train' or 'test', got {split!r}")
    if split not in _FILES:
        raise ValueError(f"split must be one of {list(_FILES)}, got {split!r}")
    path = data_dir() / "adult" / _FILES[split]
    df = pd.read_csv(
        path,
        names=ADULT_COLUMNS,
        skipinitialspace=True,
        na_values="?",
        comment="|",
        skip_blank_lines=True,
    )
    df = df.dropna(how="all")
    df["income"] = df["income"].str.rstrip(".")
    for col in _INT_COLUMNS:
        df[col] = df[col].astype("int64")
    for col in df.columns.difference(_INT_COLUMNS):
        df[col] = df[col].astype("category")
    return df.reset_index(drop=True)


def load_ages() -> pd.Series:
    """The ``age`` column of the Adult training data (n = 32,561), as int64.

    Chapter: *Local sensitivity*.
    """
    return load_adult()["age"]
