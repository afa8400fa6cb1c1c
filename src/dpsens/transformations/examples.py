"""Small example tables of the chapter: the situations of the source's guide (films, states, people, purchases).

Chapter: *Sensitivity of transformations*.  Each table is drawn from a
seeded :class:`numpy.random.Generator` passed in (or is fixed).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validate import as_int, check_rng

__all__ = ["GENRES", "films_table", "states_table", "people_table", "users_purchases_tables", "purchases_table"]


#: Genres of the film example.
GENRES = ("action", "comedy", "drama", "horror", "romance", "sci-fi")


def films_table(rng: np.random.Generator, n_films: int = 6, max_genres: int = 5) -> pd.DataFrame:
    """A random table of films, each with 0 to ``max_genres`` genres joined by ``|``.

    Chapter: *Sensitivity of transformations* (flat maps).
    """
    check_rng(rng)
    n_films = as_int(n_films, "n_films", minimum=0)
    max_genres = as_int(max_genres, "max_genres", minimum=0, maximum=len(GENRES))
    rows = []
    for _ in range(n_films):
        k = int(rng.integers(0, max_genres + 1))
        rows.append({"title": f"film {int(rng.integers(1000))}",
                     "genres": "|".join(sorted(rng.choice(GENRES, size=k, replace=False)))})
    return pd.DataFrame(rows, columns=["title", "genres"])


def states_table() -> pd.DataFrame:
    """The public ZIP-code table of the public-join example: one ZIP code lies in two states.

    Chapter: *Sensitivity of transformations*.
    """
    return pd.DataFrame({"zipcode": [10001, 37752, 37752, 60601, 94105],
                         "state": ["NY", "TN", "KY", "IL", "CA"]})


def people_table(rng: np.random.Generator, n_people: int = 6,
                 zipcodes: Sequence[int] = (10001, 37752, 60601, 94105, 99999)) -> pd.DataFrame:
    """A random private table of people (name, age, ZIP code).  99999 is in no state.

    Chapter: *Sensitivity of transformations* (public joins).
    """
    check_rng(rng)
    n_people = as_int(n_people, "n_people", minimum=0)
    return pd.DataFrame({"name": [f"person {int(v)}" for v in rng.integers(1000, size=n_people)],
                         "age": rng.integers(18, 90, size=n_people),
                         "zipcode": rng.choice(np.asarray(zipcodes), size=n_people)})


def users_purchases_tables(rng: np.random.Generator, n_ids: int = 3, max_rows: int = 4,
                           min_rows: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two random private tables sharing ``user_id``: Users (with accidental
    duplicates) and Purchases, ``min_rows`` to ``max_rows`` rows per identifier in each.

    Chapter: *Sensitivity of transformations* (private joins).
    """
    check_rng(rng)
    n_ids = as_int(n_ids, "n_ids", minimum=1)
    max_rows = as_int(max_rows, "max_rows", minimum=0)
    min_rows = as_int(min_rows, "min_rows", minimum=0, maximum=max_rows)
    users, purchases = [], []
    for uid in range(n_ids):
        users += [{"user_id": uid, "name": f"name {int(rng.integers(100))}"}
                  for _ in range(int(rng.integers(min_rows, max_rows + 1)))]
        purchases += [{"user_id": uid, "item": f"item {int(rng.integers(100))}"}
                      for _ in range(int(rng.integers(min_rows, max_rows + 1)))]
    return (pd.DataFrame(users, columns=["user_id", "name"]),
            pd.DataFrame(purchases, columns=["user_id", "item"]))


def purchases_table(rng: np.random.Generator, n_users: int = 5, n_shops: int = 4, max_rows: int = 4) -> pd.DataFrame:
    """A random table of purchases (user_id, shop, amount): each user buys in a
    random set of shops, 1 to ``max_rows`` times in each.

    Chapter: *Sensitivity of transformations* (contributions per identifier).
    """
    check_rng(rng)
    n_users = as_int(n_users, "n_users", minimum=1)
    n_shops = as_int(n_shops, "n_shops", minimum=1)
    max_rows = as_int(max_rows, "max_rows", minimum=1)
    rows = []
    for uid in range(n_users):
        shops = rng.choice(n_shops, size=int(rng.integers(1, n_shops + 1)), replace=False)
        for shop in shops:
            rows += [{"user_id": uid, "shop": f"shop {int(shop)}", "amount": int(rng.integers(1, 100))}
                     for _ in range(int(rng.integers(1, max_rows + 1)))]
    return pd.DataFrame(rows, columns=["user_id", "shop", "amount"])
