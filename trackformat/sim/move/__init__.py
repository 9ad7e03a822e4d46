"""The rules of a move: what a car may do with its turn, and what playing a move sets off.

- ``gears``: the gears a car may choose, what shifting costs, the dice and their exact odds.
- ``value``: a move as a value (:class:`~trackformat.sim.move.value.Move`) and the one reading
  of the overshoot rules that prices it.
- ``legal``: the legal moves of a roll (:func:`~trackformat.sim.move.legal.legal_moves`), and
  of a super start.
- ``routes``: the plain route walk under the movement rules (the reading the fast walk must
  agree with; slipstream extras use it).
- ``reach``, ``reuse``, ``pricing``: the fast route walk on numbered spaces, walks kept and
  reused from move to move, and the pricing of its routes into moves.
- ``slipstream``: the three extra spaces behind another fast car.
- ``resolve``: playing a chosen move or shift: costs, stops, laps, pits, and the black-die rolls
  (debris, contacts, engine) it causes.

May import: core.
"""
