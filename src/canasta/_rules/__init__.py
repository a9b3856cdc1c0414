"""The rules of Canasta, below the public `canasta.GameState`.

Plain functions over the records of `canasta.table`, layered so each module imports only
those below it:

* `lookahead`: can the player still reach a goal this turn (open, go out)?
* `facts`: facts about a table (which meld a card joins, closed ranks, the player's
  context, the cards a move names).
* `plays`: melds and lay-offs by counts, and the position after a play (the look-ahead
  questions: `after_reason`).
* `pile`: taking the pile by counts (`take_effect`, `take_options`).
* `legality`: the effect of a move and whether it is legal (`decide`, `check`), and the
  other moves (discard, ask, end, special hand, held three): each rule decided once.
* `explain`: why a move is refused, in words (`explain`).
* `generate`: every legal move, in a fixed order.
* `transitions`: dealing, and committing a decided move (`commit`).
* `recall`: the public event of a move and the memory it leaves.
"""
