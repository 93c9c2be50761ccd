"""Experiments: loops that play games to answer a question, one layer above ``run`` and ``analysis``.

``run`` plays a scenario into a result folder; ``analysis`` turns rows (or digests) into estimates with
intervals and plays no game (tests/test_layers.py checks its imports). A question that decides *which games to
play next from the games already played* lives here, as a **driver** on one **engine**:

- ``engine``: ``Trials`` plays *arms* (what a driver varies: a knob vector, one seat's offset, a config change)
  through the game contract (``play_vector``). ``batch(arms, per)`` plays every arm on the next ``per`` game
  indices with the same seeds (common random numbers) and records them in ``pool``; ``fresh(arm, games,
  start)`` plays one arm on seeds no batch uses (``CONFIRM_START``, ``PUBLISHED_START``) for a confirmation.
  Game i has the seed and the lineup rotation the runner gives game i, so results do not depend on the batch
  size or ``jobs`` (worker processes play through a picklable twin of the play function).
- ``race``: sequential elimination of arms played batch by batch on shared seeds (a paired bootstrap over game
  indices, Bonferroni over a round's comparisons; ``score``: the largest deviation from an equal share by
  default), ending "decided", "equivalent" or "budget".
- drivers: ``compensate_fix`` (``simlab compensate``: its question as a ``fix`` preset, objective most_equal,
  read back as compensate's answer), ``fair_vector`` (``simlab compensate --method softmax``: explore,
  shortlist, race, confirm a per-seat vector),
  ``adaptive`` (``simlab compensate --seat``: stochastic approximation of one seat's fair offset), ``panel``
  (``simlab robust``: the scenario once per bot, each an ordinary result folder), ``what_if``
  (``simlab compare``: two sides as a two-variant run), ``fix`` (``simlab fix``: the cheapest, or most equal,
  rule change that makes the seats fair, certified on fresh seeds for the lineup and a panel; ``fix_play``,
  ``fix_certify``, ``fix_question``, ``fix_objective``, ``fix_presets``),
  ``settle`` (``simlab run --until settled``: the runner played in looks, each variant until its verdicts are
  settled).
- ``backfill`` (``simlab digest``): not a loop, but the one writer that needs analysis: it rewrites an older
  folder's files with the digests ``analysis.file_digest`` computes from their rows (analysis writes no folder).

What a driver concludes is computed in ``analysis`` from its games: ``analysis.softmax_fit`` (the model),
``analysis.confirmation`` (seat shares on fresh seeds), ``analysis.fair_outcome`` (what the confirmations
support), ``analysis.fair_vector`` / ``analysis.adaptive`` (the answers as tables), ``analysis.robust``.

A new question is a new driver module here (docs/experiments.md).
"""
