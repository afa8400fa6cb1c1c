"""The helpers that keep old names, homes and keywords working (dpsens.deprecation)."""
from __future__ import annotations

import inspect
import warnings

import pytest

from dpsens.deprecation import moved, renamed, renamed_keyword


def _scaled(value, neighbor_value=0.0, scale=1.0):
    """A stand-in with the keyword a real function renamed."""
    return (neighbor_value - value) / scale


def test_renamed_keyword_maps_the_old_keyword_and_warns():
    f = renamed_keyword("neighbour_value", "neighbor_value")(_scaled)
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # the new keyword and positional calls: no warning
        assert f(1.0, neighbor_value=4.0, scale=2.0) == 1.5
        assert f(1.0, 4.0, 2.0) == 1.5
    with pytest.warns(DeprecationWarning, match=r"_scaled\(\): the keyword neighbour_value= was renamed to "
                                                r"neighbor_value="):
        assert f(1.0, neighbour_value=4.0, scale=2.0) == 1.5
    with pytest.raises(TypeError, match="both neighbour_value= and neighbor_value="):
        f(1.0, neighbour_value=4.0, neighbor_value=4.0)
    # the signature readers see (help, tab completion) is the new one
    assert list(inspect.signature(f).parameters) == ["value", "neighbor_value", "scale"]
    assert f.__name__ == "_scaled" and f.__doc__ == _scaled.__doc__


def test_renamed_keyword_points_the_warning_at_the_caller():
    f = renamed_keyword("neighbour_value", "neighbor_value")(_scaled)
    with pytest.warns(DeprecationWarning) as caught:
        f(0.0, neighbour_value=1.0)
    assert caught[0].filename == __file__


def test_renamed_keyword_rejects_names_that_are_not_keywords():
    with pytest.raises(ValueError, match="old and new must be keyword names"):
        renamed_keyword("neighbour value", "neighbor_value")


def test_moved_serves_the_new_object_and_says_where_it_is_now():
    getattr_ = moved("dpsens.old_home", {"_scaled": f"{__name__}._scaled", "other": f"{__name__}.renamed_keyword"})
    with pytest.warns(DeprecationWarning, match=rf"dpsens\.old_home\._scaled moved to {__name__}\._scaled"):
        assert getattr_("_scaled") is _scaled
    with pytest.warns(DeprecationWarning, match="dpsens.old_home.other moved to"):
        assert getattr_("other") is renamed_keyword                     # a new name may differ from the old
    with pytest.raises(AttributeError, match="has no attribute 'missing'"):
        getattr_("missing")
    with pytest.raises(ValueError, match="dotted paths"):
        moved("dpsens.old_home", {"x": "nodot"})


def test_renamed_says_what_the_function_is_called_now():
    alias = renamed(_scaled, "scaled_neighbour")
    with pytest.warns(DeprecationWarning, match="scaled_neighbour was renamed to _scaled"):
        assert alias(1.0, 3.0) == 2.0
    assert alias.__name__ == "scaled_neighbour" and alias.renamed_to == "_scaled"
