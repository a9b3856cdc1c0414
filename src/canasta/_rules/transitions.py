"""Transitions: dealing, stacking the stock, and committing a decided move to build the next
table.

`commit` takes the `Decision` that `canasta._rules.legality.decide` made and builds the
table after it; it decides nothing a second time. Automatic events (threes laid face up
and replaced, the pile joining the hand, the end of the deal) happen here.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta._rules.facts import (
    concealed_done,
    concealed_possible,
    context,
    may_go_out,
    opening_complete,
    opening_talon,
    remove,
    replaced,
)
from canasta._rules.legality import Decision, discard_reason
from canasta._rules.plays import play_turn
from canasta.cards import THREE
from canasta.moves import Answer, Ask, Discard, Draw, End, Expose, Special, Take
from canasta.table import (
    ANSWER,
    DRAW,
    NEW_TURN,
    OVER,
    PLAY,
    TURN_CARD_DEPTH,
    WILD_RANK,
    Club,
    Meld,
    Table,
    Turn,
    evolve,
    evolved,
)
from canasta.variants.base import Variant


def deal(variant: Variant, deck: Sequence[int], scores: tuple[int, ...], dealer: int) -> Table:
    """Deal from ``deck`` (top card first) and run the upcard and red-three procedures."""
    players = variant.players
    first = (dealer + 1) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    position = 0
    # Spec §2.2 (1): one card at a time, clockwise, starting left of the dealer.
    for _ in range(variant.hand_size):
        for offset in range(players):
            hands[(first + offset) % players].append(deck[position])
            position += 1
    stock = list(deck[position:])
    talons: list[tuple[int, ...] | None] = []
    if variant.talons_set_aside:
        # D31: the next cards go face down as the talons, the first side's first; threes
        # dealt to the players are replaced from the stock, never from them [LIB].
        for size in variant.talon_sizes:
            talons.append(tuple(stock[:size]))
            del stock[:size]
    pile: list[int] = []
    if variant.starts_with_upcard:
        # Spec §2.2 (3): turn the upcard; cover it while it is in the skip set.
        pile.append(stock.pop(0))
        while stock and variant.upcard_covered(pile[-1]):
            pile.append(stock.pop(0))
    table = Table(
        variant=variant,
        scores=scores,
        dealer=dealer,
        to_move=first,
        phase=DRAW,
        hands=tuple(tuple(sorted(h)) for h in hands),
        pile=tuple(pile),
        stock=tuple(stock),
        melds=((),) * variant.sides,
        threes=((),) * variant.sides,
        frozen=any(variant.freezes_pile(c) for c in pile),
        opened=(False,) * variant.sides,
        melded_seats=(False,) * players,
        turn=NEW_TURN,
        asked=(0,) * players,
        club=_new_club(variant, tuple(talons)),
    )
    if variant.declares_threes_at_deal:
        # Spec §2.2 (4), D3: in turn order from the first player, each replaces in full.
        for offset in range(players):
            seat = (first + offset) % players
            # Spec §3.5.11.4 H2: where a three may be held, the first one dealt stays.
            keep = None
            if variant.holds_three:
                keep = next((c for c in hands[seat] if c in variant.laid_out_threes), None)
            table = declare_threes(table, seat, keep)
            if table.phase == OVER:
                return table  # a three replaced the last stock card (spec §3.5.2)
    return begin_turn(table, first)


def _new_club(variant: Variant, talons: tuple[tuple[int, ...] | None, ...]) -> Club | None:
    """The club record a deal starts with, where talons or the turn card are played."""
    if not variant.talon_sizes and not variant.shows_turn_card:
        return None
    return Club(talon_taken=(0,) * variant.sides if variant.talon_sizes else (), talons=talons)


def stack_stock(st: Table, top: Sequence[int]) -> Table | None:
    """The table with ``top`` as the stock's first cards, in that order, the rest of the
    stock in its order; None when ``top`` is not cards of the stock.

    Every draw from the stock (the deal's upcard, a turn's draw, the cards that replace
    threes) takes the first card, and whether another card is taken depends only on the
    cards taken before it: so a chance player may choose each card as it is drawn, by
    stacking the cards chosen so far and playing the move again.

    None too when the stock's top card is the face-up turn card and ``top`` starts with
    another card: that card is seen by everyone.
    """
    # Spec §3.5.11.2 TC2.
    stock = st.stock
    if top and top[0] != stock[0] and st.turn_card_on_top:
        return None
    rest = list(stock)
    try:
        for code in top:
            del rest[rest.index(code)]  # one scan a card, where `in` and remove() take two
    except ValueError:
        return None
    return evolved(st, {"stock": (*top, *rest)})


def begin_turn(st: Table, seat: int, changes: dict[str, object] | None = None) -> Table:
    """Start ``seat``'s turn, making ``changes`` to the table too (the move that ended the
    last turn: one copy of the table for both; the dictionary is taken over); where
    threes are declared at the player's first turn, its threes go down first."""
    # D3.
    if changes is None:
        changes = {}
    changes["to_move"] = seat
    changes["phase"] = DRAW
    changes["turn"] = NEW_TURN
    st = evolved(st, changes)
    variant = st.variant
    if variant.laid_out_threes.isdisjoint(st.hands[seat]):
        return st  # no three to lay out (most turns): the variant's rules need not be asked
    if not variant.declares_threes_at_deal:
        st = declare_threes(st, seat)
    elif variant.answers.holds_three and st.opened[variant.answers.side[seat]]:
        # Spec §3.5.11.4 H3: partner has opened, so the held three goes down before the draw.
        st = declare_threes(st, seat)
    return st


def declare_threes(st: Table, seat: int, keep: int | None = None) -> Table:
    """Lay every three of the variant's kind from ``seat``'s hand face up and replace it,
    but ``keep``; a three drawn as a replacement stays in hand where the player may hold
    one and holds none.

    When the stock runs out during the replacements, the threes still to replace are laid
    face up all the same (nothing is drawn for them). Where a three drawn as the last stock
    card stays in the hand, it does so here too, and the deal ends.
    """
    variant = st.variant
    laid = variant.laid_out_threes
    hand = st.hands[seat]
    # Most hands hold no three to lay out: one test in C settles them.
    if laid.isdisjoint(hand) or sum(1 for c in hand if c in laid) <= (keep is not None):
        return st
    side = variant.side_of(seat)
    may_hold = keep is None and variant.holds_three and not st.opened[side]
    stock = st.stock
    threes = st.threes[side]
    cards = [c for c in hand if c not in laid]
    pending = [c for c in hand if c in laid]
    if keep is not None:
        # One copy only: with two decks the hand may hold the same three twice.
        pending.remove(keep)
        cards.append(keep)
    ends = False
    while pending:
        threes += (pending.pop(),)
        if stock:
            drawn, stock = stock[0], stock[1:]
            if drawn in laid and not stock and variant.last_stock_three_rule.kept_in_hand:
                # Spec §3.5.2, §3.5.11.4 H4: a three drawn as the last stock card stays in
                # the hand (a held three or not), and the deal ends.
                cards.append(drawn)
                ends = True
            elif drawn in laid and may_hold:
                may_hold = False
                cards.append(drawn)
            else:
                (pending if drawn in laid else cards).append(drawn)
    after = evolve(
        st,
        hands=replaced(st.hands, seat, tuple(sorted(cards))),
        stock=stock,
        threes=replaced(st.threes, side, threes),
        **({"last_three": seat} if ends else {}),
    )
    after = _shown_turn_card(st, after)
    return _over(after) if ends else after


def _over(
    st: Table,
    went_out: int | None = None,
    concealed: bool = False,
    changes: dict[str, object] | None = None,
) -> Table:
    """The table once the deal is over, with ``changes`` made by the move that ended it."""
    ended = {"phase": OVER, "to_move": None, "went_out": went_out, "concealed": concealed}
    return evolved(st, ended if changes is None else {**changes, **ended})


def _draw(st: Table, seat: int, wanted: int) -> Table:
    """``seat`` draws ``wanted`` cards from the stock, threes laid face up and replaced
    (a turn's draw, or a talon drawn from the stock)."""
    variant = st.variant
    answers = variant.answers
    laid = variant.laid_out_threes
    side = answers.side[seat]
    stock = st.stock
    hand = list(st.hands[seat])
    threes = st.threes[side]
    ends = no_discard = last = False
    drawn = stock[:wanted]
    if laid.isdisjoint(drawn):
        # No three among the cards drawn (most draws, one test in C): they join the hand.
        taken = len(drawn)
        hand += drawn
    else:
        # Spec §3.5.11.4 H2: an unopened player holding no three keeps the first one drawn.
        may_hold = (
            answers.holds_three and not st.opened[side] and not any(c >> 2 == THREE for c in hand)
        )
        # Spec §2.3 (a): each three drawn goes face up and is replaced; §2.12 (4): a single
        # last card is a complete draw.
        # The stock is cut once after the draw, not once a card.
        taken, size = 0, len(stock)
        while wanted and taken < size:
            card = stock[taken]
            taken += 1
            if card in laid:
                if taken == size:
                    last = True
                    last_three = variant.last_stock_three_rule
                    ends, no_discard = last_three.ends_deal, last_three.no_discard
                    if last_three.kept_in_hand:
                        hand.append(card)  # spec §3.5.2: stays in hand, the deal ends
                        st = evolve(st, last_three=seat)
                        break
                if may_hold:
                    may_hold = False
                    hand.append(card)
                    wanted -= 1
                    continue
                threes += (card,)
                continue
            hand.append(card)
            wanted -= 1
    changes: dict[str, object] = {
        "stock": stock[taken:],
        "hands": replaced(st.hands, seat, tuple(sorted(hand))),
        "phase": PLAY,
    }
    if threes is not st.threes[side]:
        changes["threes"] = replaced(st.threes, side, threes)
    if no_discard:
        changes["turn"] = evolve(st.turn, no_discard=True)
    after = _over(st, changes=changes) if ends else evolved(st, changes)
    # D11 normal_turn [LIB]: a single card left, not replaced, that may not be discarded
    # (the side may not go out) leaves no normal turn: the player ends the deal, as under
    # meld_no_discard.
    if (
        last
        and not (ends or no_discard)
        and len(hand) == 1
        and discard_reason(after, hand[0]) is not None
    ):
        after = evolved(after, {"turn": evolve(after.turn, no_discard=True)})
    return _shown_turn_card(st, after) if len(stock) - taken < TURN_CARD_DEPTH else after


def _join_waiting(st: Table, seat: int, hand: tuple[int, ...], turn: Turn) -> dict[str, object]:
    """The changes by which the cards waiting in ``turn`` (the rest of the pile) join
    ``hand``, the hand ``seat`` holds after its play; threes go face up."""
    # Spec §2.7 procedure (2).
    variant = st.variant
    waiting = turn.waiting
    laid = variant.laid_out_threes
    changes: dict[str, object] = {"turn": evolve(turn, waiting=())}
    if laid.isdisjoint(waiting):
        joined = hand + waiting  # no three among them (most piles): one test in C
    else:
        side = variant.answers.side[seat]
        threes = st.threes[side] + tuple(c for c in waiting if c in laid)
        joined = hand + tuple(c for c in waiting if c not in laid)
        changes["threes"] = replaced(st.threes, side, threes)
    changes["hands"] = replaced(st.hands, seat, tuple(sorted(joined)))
    return changes


def _partner(st: Table, seat: int) -> int | None:
    """Cutthroat: the partner of ``seat`` once the lone hand is known."""
    # Spec §3.3.
    lone = st.lone
    if lone is None or seat == lone:
        return None
    return next(s for s in range(st.variant.players) if s not in (seat, lone))


def _form_partnership(st: Table, lone: int) -> Table:
    """Cutthroat: the first player to take the pile becomes the lone hand, and the other
    two become partners who play on one set of melds.

    Their melds move under the first partner's seat (`Table.meld_side`), same-rank melds
    merged into one (a merged meld over the wild-card limit stays, and the rules refuse it
    more wild cards as they would any meld). Once either partner has opened, both have.
    """
    # Spec §3.3; the merged meld over the wild-card limit is a [LIB] ruling.
    st = evolve(st, lone=lone)
    first, second = (s for s in range(st.variant.players) if s != lone)
    merged: dict[int, Meld] = {}
    apart: list[Meld] = []
    for meld in st.melds[first] + st.melds[second]:
        held = merged.get(meld.rank)
        if held is None:
            merged[meld.rank] = meld
        elif held.size + meld.size <= st.variant.max_meld_size:
            merged[meld.rank] = held.plus(meld.codes)
        else:
            apart.append(meld)  # a variant whose melds stop growing keeps them apart
    melds = replaced(st.melds, first, _sorted_melds((*merged.values(), *apart)))
    opened = st.opened[first] or st.opened[second]
    return evolve(
        st,
        melds=replaced(melds, second, ()),
        opened=replaced(replaced(st.opened, first, opened), second, opened),
    )


def _is_concealed(st: Table, seat: int) -> bool:
    turn = st.turn
    return (
        st.variant.concealed_going_out
        and concealed_possible(st, seat, turn)
        and concealed_done(st.variant, turn.groups)
    )


def _sorted_melds(melds: tuple[Meld, ...]) -> tuple[Meld, ...]:
    return tuple(sorted(melds, key=lambda m: (m.rank == WILD_RANK, m.rank, -m.size)))


def _take_talon(st: Table, seat: int, size: int) -> Table:
    """The opener takes the talon of ``size`` cards; its threes go face up for the side and
    are replaced."""
    # Spec §3.5.11.1 TL2, TL3, TL8.
    variant = st.variant
    side = variant.side_of(seat)
    club = st.club
    assert club is not None  # talon_due found a talon
    club = club._replace(talon_taken=replaced(club.talon_taken, side, size))
    if not variant.talons_set_aside:
        # Drawn from the top of the stock: a three among them is replaced by the next card,
        # as in a draw, and a three as the last stock card ends the deal (spec §3.5.2).
        return _draw(evolve(st, club=club), seat, size)
    order = club.openings.index(side)
    talon = club.talons[order]
    assert talon is not None  # talon_due found it there
    hand = tuple(sorted(st.hands[seat] + talon))
    club = club._replace(talons=replaced(club.talons, order, None))
    return declare_threes(evolve(st, hands=replaced(st.hands, seat, hand), club=club), seat)


def _shown_turn_card(before: Table, after: Table) -> Table:
    """``after`` with its turn card public when the cards just taken from the stock
    (a draw, replacement cards, a talon) included it: whoever took it showed it."""
    # Spec §3.5.11.2 TC3.
    if len(after.stock) < TURN_CARD_DEPTH <= len(before.stock) and before.variant.shows_turn_card:
        club = after.club
        assert club is not None  # a variant with the turn card deals one
        return evolve(after, club=club._replace(turn_card=before.stock[-TURN_CARD_DEPTH]))
    return after


def _discard(st: Table, seat: int, code: int) -> Table:
    """The table after ``seat`` discards ``code``: the deal ends, or the next turn begins."""
    variant = st.variant
    rest = remove(st.hands[seat], (code,))
    # The changes are collected and the table copied once, with the next turn's start (a
    # copy of the table is the dearest part of a discard).
    changes: dict[str, object] = {
        "hands": replaced(st.hands, seat, rest),
        "pile": (*st.pile, code),
        "frozen": st.frozen or variant.answers.freezes[code],
    }
    # Spec §3.5.11.1: the opener's talon comes after the discard of the opening turn.
    talon = 0 if st.club is None else opening_talon(st, seat)
    # TL6: the last card goes out where going out is allowed; else the talon fills the
    # empty hand.
    if not rest and not (talon and not may_go_out(variant, st.melds[st.meld_side(seat)], st.turn)):
        # A discard changes neither the turn nor the seats that melded, all that the
        # concealed going out looks at.
        return _over(st, seat, _is_concealed(st, seat), changes)
    turn = st.turn
    if turn.melded or turn.took_pile:
        changes["melded_seats"] = replaced(st.melded_seats, seat, True)
    if st.courtesy == seat:
        changes["courtesy"] = None  # D36: the courtesy lasts one turn
    held = variant.answers.holds_three and st.opened[variant.answers.side[seat]]
    if talon or held:
        st = evolved(st, changes)
        changes = {}
        if talon:
            st = _take_talon(st, seat, talon)
            if st.phase == OVER:
                return st  # a three was the last stock card (spec §3.5.2)
        if held:
            # Spec §3.5.11.4 H3: the opener's held three goes down after the discard (and
            # after the talon, TL9).
            st = declare_threes(st, seat)
            if st.phase == OVER:
                return st  # its replacement, a three, was the last stock card (H4)
    if not st.stock and variant.stock_out_ends_after_turn:
        return _over(st, changes=changes)
    return begin_turn(st, (seat + 1) % variant.players, changes)


def commit(st: Table, decision: Decision) -> Table:
    """The table after a legal move, from the decision `legality.decide` made."""
    seat = st.to_move
    assert seat is not None
    variant = st.variant
    move = decision.move
    if isinstance(move, Draw):
        return _draw(st, seat, variant.draw_count)
    if isinstance(move, Discard):  # the commonest move after the draw: tested early
        return _discard(st, seat, decision.codes[0])
    if isinstance(move, Answer):
        asker = (seat - variant.sides) % variant.players
        turn = evolve(st.turn, permission=move.yes, must_go_out=move.yes)
        return evolve(st, to_move=asker, phase=PLAY, turn=turn)
    if isinstance(move, Ask):
        partner = (seat + variant.sides) % variant.players
        return evolve(
            st,
            to_move=partner,
            phase=ANSWER,
            turn=evolve(st.turn, asked=True),
            asked=replaced(st.asked, seat, st.asked[seat] + 1),
        )
    if isinstance(move, End):
        return _over(st)
    if isinstance(move, Special):
        # Spec §3.5.11.3 SH3: the hand is shown and the deal ends at once.
        shown = variant.special_hand(context(st).counts)
        assert shown is not None  # decided legal
        return evolve(_over(st, seat), special=shown[0])
    if isinstance(move, Expose):
        # Spec §3.5.11.4 H2: the held three goes down; its replacement may be held again.
        return declare_threes(st, seat)
    return _play(st, seat, decision)


def _play(st: Table, seat: int, decision: Decision) -> Table:
    """The table after a meld, a lay-off or a pickup of the pile by ``seat``."""
    variant = st.variant
    move = decision.move
    play = decision.play
    assert play is not None
    side = variant.answers.side[seat]
    shared = st.meld_side(seat)
    melds = st.melds[shared]
    cards = decision.codes
    took = isinstance(move, Take)
    if took:
        cards = (st.pile[-1], *cards)
    target = play.target
    if target is not None:
        # The target is one of these melds (the decision read them): found by identity,
        # not by the melds' own equality test, a call per meld passed.
        at = 0
        while melds[at] is not target:
            at += 1
        melds = replaced(melds, at, target.plus(cards))
    else:
        melds = _sorted_melds((*melds, Meld.of(play.rank, tuple(sorted(cards)))))
    hand = remove(st.hands[seat], decision.codes)
    turn = play_turn(st, play)
    # The changes are collected and the table copied once (the pile joining the hand, the
    # initial meld's completion and going out change it further).
    changes: dict[str, object] = {
        "hands": replaced(st.hands, seat, hand),
        "melds": replaced(st.melds, shared, melds),
        "turn": turn,
        "phase": PLAY,
    }
    if took:
        changes["pile"] = ()
        changes["frozen"] = False
        if variant.lone_hand_on_first_pickup and st.lone is None:
            st = _form_partnership(evolved(st, changes), seat)
            changes = {}
    if not st.opened[side]:
        if opening_complete(st, side, turn):
            opened = replaced(st.opened, side, True)
            club = st.club
            if club is not None and variant.talon_sizes:
                # Spec §3.5.11.1 TL1: the order of opening sets the talon's size.
                changes["club"] = club._replace(openings=(*club.openings, side))
            if variant.special_hand_courtesy:
                # D36: partner may still show a special hand on the next own turn.
                changes["courtesy"] = (seat + variant.sides) % variant.players
            other = _partner(st, side)
            if other is not None:
                # Spec §3.3 cutthroat: once one partner has met the minimum, the other is free.
                opened = replaced(opened, other, True)
            changes["opened"] = opened
            changes.update(_join_waiting(st, seat, hand, turn))
    elif turn.waiting:
        changes.update(_join_waiting(st, seat, hand, turn))
    st = evolved(st, changes)
    if not st.hands[seat]:
        return _over(st, seat, _is_concealed(st, seat))
    return st
