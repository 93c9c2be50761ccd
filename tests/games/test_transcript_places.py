"""Pantheon's and Merchant of Venus's transcripts at the level of Massilia's (issue 32): a set-up section, an
era/round and turn prefix on every decision, places by readable names (no bare hex numbers, no internal node
ids) and final scores in the game's unit with a breakdown by source that sums to the score."""

from __future__ import annotations

import re

import pytest

from simlab import get_game
from simlab.core.transcript import PlayResult, play_with_transcript
from simlab.games.merchant_of_venus import board as MB
from simlab.games.merchant_of_venus import narrate as mov_narrate
from simlab.games.pantheon import board as PB
from simlab.games.pantheon import narrate as pantheon_narrate

SEED = 7


@pytest.fixture(scope="module")
def pantheon_game() -> PlayResult:
    game = get_game("pantheon")
    config = game.make_config()
    return play_with_transcript(game, config, SEED, game.default_lineup(config.players))


@pytest.fixture(scope="module")
def mov_game() -> PlayResult:
    game = get_game("merchant_of_venus")
    config = game.make_config()
    return play_with_transcript(game, config, SEED, game.default_lineup(config.players))


def breakdown(line: str, unit: str) -> tuple[int, dict[str, int], int]:
    """(score, {part: amount}, rank) of a final-score line "seat p: N unit = start S, what +x, ...; rank R"."""
    m = re.fullmatch(rf"  seat \d: (?P<score>[\d,]+) {unit} = (?P<parts>.+); rank (?P<rank>\d)", line)
    assert m, f"not a final-score line with its unit and breakdown: {line!r}"
    parts = {}
    for part in m["parts"].split(", "):
        what, _, amount = part.rpartition(" ")
        parts[what] = int(amount.replace(",", ""))
    return int(m["score"].replace(",", "")), parts, int(m["rank"])


def final_lines(result: PlayResult) -> list[str]:
    i = result.lines.index("final scores:")
    return result.lines[i + 1 : i + 1 + result.state.config.players]


# -- Pantheon ------------------------------------------------------------------------------------------
def test_pantheon_hexes_have_unique_readable_labels() -> None:
    board = PB.load_map()
    labels = pantheon_narrate.hex_labels(board)
    assert len(set(labels)) == board.n_hexes
    q, r = (int(x) for x in board.coords[int(board.start[1])])
    assert labels[int(board.start[1])] == f"Gallia's start ({q},{r})"
    column = next(i for i in range(board.n_hexes) if board.column_space[i])
    assert labels[column].startswith("column space near ")
    for i, label in enumerate(labels):
        q, r = (int(x) for x in board.coords[i])
        assert label.endswith(f"({q},{r})"), label


def test_pantheon_transcript_has_a_set_up_section(pantheon_game: PlayResult) -> None:
    lines = pantheon_game.lines
    assert lines[2].startswith("setup: map mediterranean_approx (placeholder board, 216 hexes); 6 eras")
    seats = [ln for ln in lines[3:8] if re.match(r"  seat \d: \d+ feet? and \d+ columns? in stock", ln)]
    assert len(seats) == pantheon_game.state.config.players, lines[:10]
    assert any(ln.startswith("  card display: ") for ln in lines[3:10])
    eras = [ln for ln in lines if ln.startswith("=== era ")]
    assert len(eras) == pantheon_game.state.config.eras
    assert all(re.match(r"=== era \d: \w+ \(.+\); start player seat \d ===$", ln) for ln in eras), eras


def test_pantheon_decisions_carry_era_and_turn_and_name_hexes(pantheon_game: PlayResult) -> None:
    lines = pantheon_game.lines
    decisions = [ln for ln in lines if re.match(r"  \S.* seat \d \[", ln)]
    assert len(decisions) == len(pantheon_game.state.history)
    for line in decisions:
        assert re.match(r"  (set-up|e[1-6] set-up|e[1-6] t\d+) seat \d \[[^\]]+\] \S", line), line
    assert sum(bool(re.match(r"  e3 t\d+ ", ln)) for ln in decisions) > 5
    assert not [ln for ln in lines if re.search(r"\bhex \d+", ln)], "a bare hex number"
    placed = [ln for ln in decisions if "] foot on " in ln or "] column on " in ln]
    assert placed and all(re.search(r"on .+ \(-?\d+,-?\d+\)$", ln) for ln in placed), placed[:3]
    assert any(ln.startswith("--- era 1, turn 1: seat ") for ln in lines)


def test_pantheon_final_points_by_source_sum_to_the_score(pantheon_game: PlayResult) -> None:
    state = pantheon_game.state
    facts = state.fact_columns()
    for p, line in enumerate(final_lines(pantheon_game)):
        score, parts, rank = breakdown(line, "points")
        assert score == int(state.outcome().scores[p]) and rank == state.outcome().ranks[p]
        assert sum(parts.values()) == score, line
        assert "unaccounted" not in parts, line
        assert parts["start"] == facts["start_points"][p]
        for source, words in pantheon_narrate.SOURCE_WORDS.items():
            assert parts.get(words, 0) == facts[f"points_{source}"][p], (line, source)


# -- Merchant of Venus ---------------------------------------------------------------------------------
def test_mov_spaces_have_unique_readable_labels() -> None:
    board = MB.DEFAULT_BOARD
    labels = mov_narrate.space_labels(board)
    assert len(set(labels)) == board.n_spaces
    by_id = dict(zip(board.names, labels, strict=True))
    assert by_id["gb_cw_1"] == "route Galactic Base–Colony World, space 1 of 4"
    assert by_id["gb_cw_4"] == "route Galactic Base–Colony World, space 4 of 4"
    assert by_id["cw_loop_6"] == "Colony World space 4"
    assert by_id["GP_loop_01"] == "Grandport (Giant Planet)"
    assert by_id["Levitown"] == "Levitown (Giant Planet)"
    assert by_id["Galactic Base"] == "Galactic Base"
    assert by_id["MGS_loop_3"] == "Multi-Generation Ship port"
    assert by_id["AS_2_1"] == "Asteroid System space 2 (hazard)"
    assert not [x for x in labels if mov_narrate.INTERNAL_ID.match(x) or "_" in x]


def test_mov_transcript_has_a_set_up_section(mov_game: PlayResult) -> None:
    lines, n = mov_game.lines, mov_game.state.config.players
    assert re.match(r"setup: start player seat \d; turn order (seat \d, )+seat \d; 30 rounds$", lines[2]), lines[2]
    assert re.match(r"  purses: (seat \d [\d,]+ credits, )+seat \d [\d,]+ credits$", lines[3]), lines[3]
    ships = [ln for ln in lines[4 : 4 + n] if re.match(r"  seat \d: at Galactic Base; [\d,]+ credits; laser", ln)]
    assert len(ships) == n, lines[4 : 4 + n]
    assert lines[4 + n].startswith("  board: 268 spaces; 14 systems with a market")
    assert all("; laser and shield dials to set (2 and 1), pilot 1, " in ln for ln in ships), ships  # not "laser 0"


def test_mov_transcript_names_no_internal_node_id(mov_game: PlayResult) -> None:
    ids = {name for name in MB.DEFAULT_BOARD.names if mov_narrate.INTERNAL_ID.match(name)}
    words = {w for ln in mov_game.lines for w in re.findall(r"[\w-]+", ln)}
    assert not ids & words, sorted(ids & words)[:5]
    moves = [ln for ln in mov_game.lines if "[move] to " in ln]
    assert any("] to route Galactic Base–" in ln for ln in moves), moves[:3]
    decisions = [ln for ln in mov_game.lines if re.match(r"  r\d+ seat \d \[[^\]]+\] \S", ln)]
    assert len(decisions) == len(mov_game.state.history)
    assert any(re.match(r"--- round 2, seat \d's turn: at .+; [\d,]+ credits; ", ln) for ln in mov_game.lines)


def test_mov_final_credits_by_source_sum_to_the_score(mov_game: PlayResult) -> None:
    state = mov_game.state
    facts = state.fact_columns()
    for p, line in enumerate(final_lines(mov_game)):
        score, parts, rank = breakdown(line, "credits")
        assert score == int(state.outcome().scores[p]) == facts["final_credits"][p]
        assert rank == state.outcome().ranks[p]
        assert sum(parts.values()) == score, line
        assert parts["start"] == facts["start_credits"][p]
        assert parts.get("sales", 0) == facts["credits_sales"][p]
        for source, words in mov_narrate.SOURCE_WORDS.items():
            assert parts.get(words, 0) == facts[f"credits_{source}"][p], (line, source)
        assert parts.get("spent", 0) <= 0, line


@pytest.mark.parametrize(("name", "unit"), [("pantheon", "points"), ("merchant_of_venus", "credits")])
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
def test_every_line_is_placed_and_scores_add_up_at_other_tables(name: str, unit: str, players: int, seed: int) -> None:
    game = get_game(name)
    config = game.make_config(players=players)
    result = play_with_transcript(game, config, seed, game.default_lineup(players))
    decisions = [ln for ln in result.lines if re.match(r"  (set-up|e\d set-up|e\d t\d+|r\d+) seat \d \[[^\]]+\] ", ln)]
    assert len(decisions) == len(result.state.history)
    assert not [ln for ln in result.lines if re.search(r"\bhex \d+|\b[a-zA-Z]+_(loop|[A-Za-z]+)_\d+\b", ln)]
    for p, line in enumerate(final_lines(result)):
        score, parts, _ = breakdown(line, unit)
        assert score == int(result.state.outcome().scores[p]) == sum(parts.values()), line


def test_pantheon_loot_is_taken_by_a_seat_or_boxed_at_the_eras_end(pantheon_game: PlayResult) -> None:
    facts = pantheon_game.state.fact_columns()
    for p in range(pantheon_game.state.config.players):
        taken = [ln for ln in pantheon_game.lines if ln.startswith(f"    seat {p} takes the ")]
        assert len(taken) == facts["loot_taken"][p]
    boxed = [ln for ln in pantheon_game.lines if re.match(r"    the .+ loot left on .+ is boxed$", ln)]
    assert boxed, "loot left at an era's end is boxed, not taken"


# -- the chance outcomes and set pieces a reader needs to follow the game (issue 32) --------------------
def test_pantheon_says_which_god_gallia_flips_and_how_the_rows_refill() -> None:
    game = get_game("pantheon")
    config = game.make_config()
    lines = play_with_transcript(game, config, 1, game.default_lineup(config.players)).lines
    flips = [i for i, ln in enumerate(lines) if ln.endswith("] Gallia: flip the top god")]
    assert flips, "seed 1 plays Gallia and a seat flips a god"
    for i in flips:
        assert re.fullmatch(r"    seat \d flips (\w+)", lines[i + 1]), lines[i + 1]
        assert lines[i + 1].split()[-1] in pantheon_narrate.D.GODS
    shown: list[str] = []
    checked = 0
    for i, line in enumerate(lines):
        if line.startswith(("  gods face up: ", "    gods face up now: ")):
            listed = line.partition(": ")[2].split("; demigods face up: ")[0]
            shown = [] if listed == "none" else listed.split(", ")
        taken = re.search(r"\[choose a god\] (\w+) \(god slot \d\)$", line)
        if taken:
            after = next(ln for ln in lines[i:] if ln.startswith("    gods face up now: ")).partition(": ")[2]
            left = [] if after == "none" else after.split(", ")
            want = list(shown)
            want.remove(taken[1])
            assert sorted(left) == sorted(want), (line, shown, left)
            checked += 1
    assert checked > 5
    for i, line in enumerate(lines):
        if "] the " in line and " card from display slot " in line:
            assert lines[i + 2].startswith("    card display now: "), lines[i : i + 3]


def test_pantheon_names_the_era_end_bonus(pantheon_game: PlayResult) -> None:
    facts = pantheon_game.state.fact_columns()
    for p in range(pantheon_game.state.config.players):
        said = [
            re.search(r"era-end bonus \+(\d+)", ln) for ln in pantheon_game.lines if ln.startswith(f"    seat {p}: +")
        ]
        assert sum(int(m[1]) for m in said if m) == facts["points_era_end"][p]
    assert any(facts["points_era_end"])
    assert not [ln for ln in pantheon_game.lines if "era ends +" in ln]


def test_mov_every_turn_has_its_header_from_the_first(mov_game: PlayResult) -> None:
    lines, state = mov_game.lines, mov_game.state
    n, rounds = state.config.players, state.config.rounds
    last_dial = max(i for i, ln in enumerate(lines) if "[set the dials]" in ln)
    first = int(state.record[0]["first"])
    assert lines[last_dial + 1].startswith(f"--- round 1, seat {first}'s turn: at Galactic Base; "), lines[
        last_dial + 1
    ]
    headers = [re.match(r"--- round (\d+), seat (\d)'s turn: ", ln) for ln in lines]
    turns = [(int(m[1]), int(m[2])) for m in headers if m]
    assert sorted(turns) == sorted((r, p) for r in range(1, rounds + 1) for p in range(n))
    for i in range(last_dial + 1, len(lines)):  # a decision of a turn falls under that turn's header
        d = re.match(r"  r(\d+) seat \d \[", lines[i])
        if d:
            header = next(m for m in reversed(headers[:i]) if m)
            assert int(header[1]) == int(d[1]), (lines[i], header[0])


def test_mov_tells_hazards_encounters_and_ious(mov_game: PlayResult) -> None:
    lines, state = mov_game.lines, mov_game.state
    facts = state.fact_columns()
    for p in range(state.config.players):
        failed = [
            ln
            for ln in lines
            if re.fullmatch(rf"    seat {p} fails the (laser|shield|pilot) test \(\w+ \d\): the turn ends", ln)
        ]
        assert len(failed) == facts["hazards_failed"][p]
    for i, line in enumerate(lines):
        if line.startswith("    seat ") and " fails the " in line:
            assert lines[i + 1].startswith(("--- round ", "  end of the game", "    drawn: ")), lines[i : i + 2]
    cards = [ln for ln in lines if ln.startswith("    encounter card: ")]
    assert cards and any(" passes the " in ln for ln in lines)
    for i, line in enumerate(lines):
        money = re.fullmatch(r"    encounter card: \w[\w ]*, ([+-][\d,]+) credits", line)
        if money and lines[i + 1].startswith("    seat "):
            assert f"(encounters {money[1]})" in lines[i + 1], lines[i : i + 2]
    ious: dict[str, int] = {}
    for line in lines:
        found = re.match(r"    discovered the (\w+) at .+; IOU ([\d,]+) credits for seat \d to spend there$", line)
        if found:
            ious[found[1]] = int(found[2].replace(",", ""))
        paid = re.fullmatch(
            r"    seat \d pays ([\d,]+) credits? from the (\w+) IOU \(([\d,]+) credits? left on it\)", line
        )
        if paid:
            ious[paid[2]] -= int(paid[1].replace(",", ""))
            assert ious[paid[2]] == int(paid[3].replace(",", "")) >= 0, line
    assert len(ious) == sum(facts["systems_discovered"])


def test_mov_end_of_game_and_passengers_drawn(mov_game: PlayResult) -> None:
    lines, s = mov_game.lines, mov_game.state.record[0]
    n = mov_game.state.config.players
    end = next(i for i, ln in enumerate(lines) if ln.startswith("  end of the game: "))
    fame = ", ".join(f"seat {p}: {int(s['total_fame'][p])}" for p in range(n))
    assert f"fame {fame}" in lines[end]
    assert lines.index("=== game over ===") > end
    shown = sum(1 for ln in lines if re.match(r"  (  drawn: )?passenger \d+ waits at ", ln))
    assert shown == int((s["pass_loc"][: len(s["pass_loc"])] != -1).sum())


def test_mov_tells_missions_completed_and_names_race_techs(mov_game: PlayResult) -> None:
    state = mov_game.state
    facts = state.fact_columns()
    for p in range(state.config.players):
        done = [
            ln
            for ln in mov_game.lines
            if re.match(rf"    seat {p} completes the mission to .+ \(\+\d+ fame points?\)$", ln)
        ]
        assert len(done) == facts["missions_done"][p]
    assert any(facts["missions_done"])
    c = state.cfg[0]
    for j in range(int(c["n_tokens"])):  # a race-tech token by its tech's name and culture, never its number
        kind = int(c["culture_tech"][int(c["token_culture"][j])])
        said = state.describe(mov_narrate.R.A_TECH + j)
        assert said.startswith(f"buy a {mov_narrate.D.DEFAULT_DATA.race_techs[kind].name} race-tech token from the ")
        assert said.endswith(" credits)") and f"token {j}" not in said, said


@pytest.mark.parametrize("seed", [1, 2024])
def test_pantheon_opens_era_one_and_its_first_turn_with_or_without_set_up_decisions(seed: int) -> None:
    """Seed 2024 has no decision before era 1's first turn (seed 1 has): both open era 1 with its header and
    turn 1 with its line, and the first turn's decisions carry "e1 t1", not "e1 set-up"."""
    game = get_game("pantheon")
    config = game.make_config()
    lines = play_with_transcript(game, config, seed, game.default_lineup(config.players)).lines
    assert sum(ln.startswith("=== era 1: ") for ln in lines) == 1
    era_one = next(i for i, ln in enumerate(lines) if ln.startswith("=== era 1: "))
    first = next(i for i, ln in enumerate(lines) if ln.startswith("--- era 1, turn 1: seat "))
    assert era_one < first
    assert not [ln for ln in lines[first:] if ln.startswith("  e1 set-up ")]
    assert lines[first + 1].startswith("  e1 t1 seat "), lines[first : first + 2]
    turns = [ln for ln in lines if re.match(r"--- era \d, turn \d+: ", ln)]
    for era in range(1, config.eras + 1):  # every era's turns are numbered from 1 without a gap
        numbers = [
            int(re.match(rf"--- era {era}, turn (\d+):", ln)[1]) for ln in turns if ln.startswith(f"--- era {era},")
        ]
        assert numbers == list(range(1, len(numbers) + 1)), (era, numbers[:5])


def test_pantheon_says_each_demigod_taken_with_its_value(pantheon_game: PlayResult) -> None:
    s = pantheon_game.state.record[0]
    for p in range(pantheon_game.state.config.players):
        said: list[int] = []
        for line in pantheon_game.lines:
            held = re.match(rf"  seat {p}: .*; demigods of value ([\d, ]+)$", line)
            taken = re.fullmatch(rf"    seat {p} takes \d+ demigods? \(values? ([\d, ]+)\)", line)
            for m in (held, taken):
                said += [int(v) for v in m[1].split(", ")] if m else []
        owned = [v for v in range(s["demi_own"].shape[1]) for _ in range(int(s["demi_own"][p, v]))]
        assert sorted(said) == owned, (p, said, owned)
    assert any(" demigod" in ln and " takes " in ln and "(value" in ln for ln in pantheon_game.lines)
    shown = [ln for ln in pantheon_game.lines if "demigods face up" in ln]
    last = re.search(r"demigods face up(?: now)?: (.*)$", shown[-1])[1]
    assert last == pantheon_narrate.demigods_up(s), "the last face-up demigods said are the game's"


def test_mov_a_navigation_exit_chosen_by_another_seat_names_the_ship(mov_game: PlayResult) -> None:
    """Without a navigation die the next player chooses the exit: the line says whose ship it steers."""
    active, others = -1, 0
    for line in mov_game.lines:
        header = re.match(r"--- round \d+, seat (\d)'s turn: ", line)
        active = int(header[1]) if header else active
        chosen = re.match(r"  r\d+ seat (\d) \[choose a navigation exit\] (.*)$", line)
        if chosen and int(chosen[1]) != active:
            assert chosen[2].startswith(f"seat {active}'s ship (no navigation die) to "), line
            others += 1
        elif chosen:
            assert chosen[2].startswith("to "), line
    assert others


def test_pantheon_says_each_seats_bonus_tile_once() -> None:
    """Seed 1 deals seats 2 and 3 their bonus tiles after seat 1's decisions on its own: the set-up says they
    are still to deal, and the dealing is said when it happens."""
    game = get_game("pantheon")
    config = game.make_config()
    result = play_with_transcript(game, config, 1, game.default_lineup(config.players))
    s = result.state.record[0]
    for p in range(config.players):
        tile = pantheon_narrate.loot_name(int(s["f_bonus_tile"][p]))
        said = [ln for ln in result.lines if re.match(rf"  seat {p}: .*; bonus tile {tile}(;|$)", ln)]
        said += [ln for ln in result.lines if ln == f"    seat {p} is dealt the {tile} bonus tile"]
        assert len(said) == 1, (p, tile, said)
    assert any(ln.endswith("; bonus tile still to deal") for ln in result.lines[:10])


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (4, 2024), (2, 3)])
def test_pantheon_every_decision_falls_under_its_era_and_turn_header(players: int, seed: int) -> None:
    """ "eN tK" lines come under "--- era N, turn K", "eN set-up" lines between era N's header and its turn 1,
    "set-up" lines before era 1."""
    game = get_game("pantheon")
    config = game.make_config(players=players)
    lines = play_with_transcript(game, config, seed, game.default_lineup(players)).lines
    era, turn = 0, 0
    for line in lines:
        opened = re.match(r"=== era (\d): ", line)
        header = re.match(r"--- era (\d), turn (\d+): ", line)
        if opened:
            era, turn = int(opened[1]), 0
        elif header:
            assert int(header[1]) == era, line
            turn = int(header[2])
        decision = re.match(r"  (set-up|e(\d) set-up|e(\d) t(\d+)) seat \d \[", line)
        if decision and decision[1] == "set-up":
            assert era == 0, line
        elif decision and decision[2]:
            assert (int(decision[2]), turn) == (era, 0), line
        elif decision:
            assert (int(decision[3]), int(decision[4])) == (era, turn), line
