"""Copying deals and matches (`clone`) and integer action ids (`legal_ids`, `apply_id`,
`action_of`): the interface search bots and array-based learners use."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore.language.errors import IllegalActionError, TrickcoreError

VARIANTS = ["tysiacha", "russisch-schnapsen", "durak", "skat", "sixty-six", "hearts", "spades"]


def _advance(state, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))


def _seen(deal, seats: int) -> list:
    return [deal.observation(s) for s in range(seats)]


@pytest.mark.parametrize("name", VARIANTS)
def test_a_cloned_deal_is_independent_and_plays_the_same(name):
    """Playing a copy to the end leaves the original as it was; the original, given the
    same actions, ends with the same scores."""
    v = trickcore.load_variant(name)
    for seed in range(3):
        deal = v.new_deal(seed=seed)
        seats = deal.seats
        _advance(deal, random.Random(seed), 7 + seed * 5)
        before = _seen(deal, seats)
        legal_before = [a.text for a in deal.legal_actions()]
        copy = deal.clone()
        rng = random.Random(100 + seed)
        taken = []
        while not copy.is_over:
            a = rng.choice(copy.legal_actions())
            taken.append(a.text)
            copy.apply(a)
        assert _seen(deal, seats) == before
        assert [a.text for a in deal.legal_actions()] == legal_before
        for text in taken:
            deal.apply(text)
        assert deal.is_over and deal.gains == copy.gains
        assert _seen(deal, seats) == _seen(copy, seats)


ALL_SHIPPED = trickcore.shipped_variants()


def _attributes(deal) -> dict:
    """Every attribute a deal has set: its classes declare them all in `__slots__`."""
    names = [n for cls in type(deal).__mro__ for n in cls.__dict__.get("__slots__", ())]
    assert not hasattr(deal, "__dict__"), "a deal declares its attributes in __slots__"
    return {n: getattr(deal, n) for n in names if hasattr(deal, n)}


@pytest.mark.skipif(trickcore.ENGINE == "native", reason="a compiled deal lists no __slots__")
@pytest.mark.parametrize("name", ALL_SHIPPED)
def test_a_copy_has_every_attribute_of_its_original_and_no_shared_list(name):
    """`clone` copies each attribute by name: one forgotten (a new attribute of a deal) would
    be missing from the copy, or shared with the original when it should not be."""
    v = trickcore.load_variant(name)
    shared_ok = {"game", "rules", "deck_order", "_legal", "_ids", "_flow", "_current", "rel"}
    shared_ok |= {"next_player", "_by_number"}  # the game's number -> action list
    shared_ok |= {"side_of", "side_members"}  # the deal's sides: replaced, never changed
    for seed in range(2):
        deal = v.new_deal(seed=seed)
        _advance(deal, random.Random(seed), 3 + 9 * seed)
        deal.legal_actions()
        copy = deal.clone()
        assert type(copy) is type(deal)
        original, copied = _attributes(deal), _attributes(copy)
        assert len(original) > 20
        assert set(copied) == set(original)
        for key, value in original.items():
            if key in ("_views", "window_envs"):  # made again for the copy's own lists
                continue
            assert copied[key] == value, key
            if isinstance(value, (list, dict, set)) and value and key not in shared_ok:
                assert copied[key] is not value, key


def test_a_cloned_match_deals_the_same_next_cards_and_keeps_its_own_scores():
    """A copy of a match in mid-play continues exactly as the original would (same shuffle
    to come), while changing it leaves the original untouched."""
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=11)
    rng = random.Random(4)
    while m.deals_played < 2:
        m.apply(rng.choice(m.legal_actions()))
    _advance(m, rng, 5)
    copy = m.clone()
    scores, history = list(m.scores), list(m.history)
    moves = random.Random(9)
    texts = []
    while copy.deals_played < 5 and not copy.is_over:
        a = moves.choice(copy.legal_actions())
        texts.append(a.text)
        copy.apply(a)
    assert m.scores == scores and m.history == history
    for text in texts:
        m.apply(text)
    assert m.scores == copy.scores and m.history == copy.history


@pytest.mark.parametrize("name", VARIANTS)
def test_action_ids_name_each_legal_action_once_and_round_trip(name):
    """Every legal action has a number below `num_actions`, distinct among the legal ones;
    `action_of` gives the action back, and `apply_id` is the same as applying it."""
    v = trickcore.load_variant(name)
    deal = v.new_deal(seed=3)
    twin = v.new_deal(seed=3)
    rng = random.Random(2)
    while not deal.is_over:
        ids = deal.legal_ids()
        legal = deal.legal_actions()
        assert len(set(ids)) == len(ids) and all(0 <= i < v.num_actions for i in ids)
        assert [v.action_of(i) for i in ids] == legal
        assert [v.action_text(i) for i in ids] == [a.text for a in legal]
        pick = rng.randrange(len(ids))
        deal.apply_id(ids[pick])
        twin.apply(legal[pick].text)
    assert deal.gains == twin.gains


def test_changing_the_list_legal_ids_gave_changes_nothing_the_deal_does():
    """`legal_ids()` gives the caller his own list: removing or reordering its numbers does
    not change which action `apply_id` takes for a number."""
    v = trickcore.load_variant("russisch-schnapsen")
    deal, twin = v.new_deal(seed=4), v.new_deal(seed=4)
    while not deal.is_over:
        ids = deal.legal_ids()
        chosen = ids[-1]
        ids.reverse()
        del ids[1:]
        assert deal.legal_ids()[-1] == chosen
        deal.apply_id(chosen)
        twin.apply(v.action_of(chosen))
    assert deal.history == twin.history and deal.gains == twin.gains


def test_action_ids_are_the_same_in_every_load_of_a_variant():
    """Ids depend on the action, not on the order actions were first offered: a second
    load of the variant, playing other deals first, numbers the same actions the same."""
    first = trickcore.load_variant("russisch-schnapsen")
    second = trickcore.load_variant("russisch-schnapsen")
    rng = random.Random(5)
    for seed in (7, 8, 9):  # the second load sees other deals first
        d = second.new_deal(seed=seed)
        _advance(d, rng, 200)
    d1, d2 = first.new_deal(seed=1), second.new_deal(seed=1)
    while not d1.is_over:
        assert d1.legal_ids() == d2.legal_ids()
        choice = rng.choice(d1.legal_ids())
        d1.apply_id(choice)
        d2.apply_id(choice)


def test_an_illegal_action_id_is_refused_and_changes_nothing():
    """apply_id with a number that is not legal now raises and leaves the deal as it was;
    action_of with a number never offered is a clear error."""
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=1)
    before = m.observation(0)
    legal = set(m.legal_ids())
    wrong = next(i for i in range(v.num_actions) if i not in legal)
    with pytest.raises(IllegalActionError):
        m.apply_id(wrong)
    assert m.observation(0) == before
    for never in (v.num_actions + 5, -1, 1.0):  # beyond the space, from its end, no number
        with pytest.raises(TrickcoreError):
            v.action_of(never)


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_a_deal_played_by_numbers_alone_offers_what_the_actions_path_offers(name):
    """The phases number their legal actions themselves (trick play from the cards, without
    Action objects): a deal asked only for numbers offers, at every step, the numbers of
    the actions a twin deal asked only for actions offers, in the same order, and ends the
    same (every shipped variant, several deals)."""
    v = trickcore.load_variant(name)
    players = v.check_seats(None)
    for seed in range(3):
        by_ids = v.new_deal(seed=seed, dealer=seed % players, deal_number=1 + seed)
        by_actions = v.new_deal(seed=seed, dealer=seed % players, deal_number=1 + seed)
        rng = random.Random(seed)
        while not by_actions.is_over:
            ids = by_ids.legal_ids()
            legal = by_actions.legal_actions()
            assert ids == [a.id for a in legal], (name, seed, by_actions.phase)
            pick = rng.randrange(len(ids))
            by_ids.apply_id(ids[pick])
            by_actions.apply(legal[pick])
        assert by_ids.is_over
        assert by_ids.history == by_actions.history and by_ids.gains == by_actions.gains


@pytest.mark.parametrize("kind", ["deal", "match"])
def test_a_float_or_a_bool_equal_to_a_legal_number_is_refused(kind):
    """Only a whole number is an action number: `1042.0` or `True` equal to a legal number
    is refused like an illegal one and changes nothing (untrusted input)."""
    v = trickcore.load_variant("russisch-schnapsen")
    state = v.new_deal(seed=2) if kind == "deal" else v.new_match(seed=2)
    _advance(state, random.Random(1), 8)  # into trick play, where a number 1 may be legal
    before = state.observation(0)
    history = list(state.current.history if kind == "match" else state.history)
    for number in state.legal_ids():
        for wrong in (float(number), number + 0j):
            with pytest.raises(IllegalActionError):
                state.apply_id(wrong)
    if 1 in state.legal_ids():
        with pytest.raises(IllegalActionError):
            state.apply_id(True)
    assert state.observation(0) == before
    assert list(state.current.history if kind == "match" else state.history) == history
    state.apply_id(state.legal_ids()[0])  # a whole number is taken
