"""Pantheon's rule numbers: a frozen config whose every field says where its default comes from.

Defaults follow the rules page ``shared/rules/pantheon.md`` (rulebook RB-HU where it is stated); every
ambiguity of its §10 is a knob holding the page's default, so a sweep can show what the decision is worth.
The large placeholder tables (god tiles, demigod values, the loot/bonus mix, the map) are data files chosen
by name or path (``simlab.games.pantheon.data`` / ``board``); rules.py reads only the config record.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import ClassVar

from simlab.core.config import GameConfig, knob, require
from simlab.core.errors import ConfigError

MAX_PLAYERS = 4
KINDS = 4  # sacrifice kinds: gifts, priests, dancers, temples
LEVELS = 4


#: the gods' keys for the start_god knob (data.GODS in lower case, same order)
GOD_KEYS = (
    "surparit",
    "plaesiris",
    "taksator",
    "traitera",
    "depraccus",
    "vinthrad",
    "gaiviles",
    "stonkus",
    "gadicea",
    "pietalte",
)


def _last_seat(c: PantheonConfig) -> int:
    return c.players - 1


@dataclasses.dataclass(frozen=True)
class PantheonConfig(GameConfig):
    """Every number of Pantheon's rules page (see each field's provenance and description)."""

    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "rulebook": {},
        "bsw": {"start_stock_by_player_count": True},
        "draft": {"bonus_draft": True},
    }
    DEFAULT_PRESET: ClassVar[str] = "rulebook"
    PYTHON_ONLY: ClassVar[dict[str, str]] = {
        "map_file": "read by derive_config into the map arrays; the game ships one map, so no other value can "
        "be tried by the knob contract test",
        "loot_table": "read by derive_config into the loot/bonus arrays; the game ships one mix, so no other "
        "value can be tried by the knob contract test",
    }

    players: int = knob(4, "rulebook", "number of players (2 to 4)", range=(2, 4))
    # -- data tables (placeholders live in files, chosen here) -------------------------------------------
    map_file: str = knob(
        "", "placeholder", "the board's map file ('' = the shipped maps/mediterranean_approx.json)", record=None
    )
    god_tiles: str = knob(
        "even",
        "placeholder",
        "god-tile table: a bundled name (even, permanent_weighted) or a path",
        record=None,
        choices=("even", "permanent_weighted"),
    )
    demigods: str = knob(
        "default",
        "placeholder",
        "demigod value table: a bundled name (default, triangular) or a path",
        record=None,
        choices=("default", "triangular"),
    )
    loot_table: str = knob(
        "", "placeholder", "loot/bonus mix file ('' = the shipped tables/loot_bonus.json)", record=None
    )
    # -- components and set-up -------------------------------------------------------------------------
    eras: int = knob(6, "rulebook", "eras in a game (one nation each)", range=(1, 6))
    scoring_eras: tuple[int, ...] = knob(
        (3, 6), "rulebook", "eras after which a scoring takes place (the game's last era always scores)"
    )
    columns_per_player: int = knob(12, "rulebook", "columns of each colour", range=(1, None))
    feet_per_player: int = knob(12, "rulebook", "feet of each colour", range=(1, None))
    start_columns: int = knob(3, "rulebook", "columns in each player's own stock at set-up", range=(0, None))
    start_feet: int = knob(4, "rulebook", "feet in each player's own stock at set-up", range=(0, None))
    start_stock_by_player_count: bool = knob(
        False, "rulebook", "variant (Brettspielwelt): start stock by player count instead of start_feet/start_columns"
    )
    stock_feet_by_players: tuple[int, ...] = knob(
        (6, 5, 4), "rulebook", "start feet for 2, 3, 4 players (variant)", record=None
    )
    stock_columns_by_players: tuple[int, ...] = knob(
        (5, 4, 3), "rulebook", "start columns for 2, 3, 4 players (variant)", record=None
    )
    start_hand: int = knob(5, "rulebook", "cards dealt to each player at set-up", range=(0, None))
    display_cards: int = knob(4, "rulebook", "face-up cards beside the deck", range=(0, None))
    bonus_draft: bool = knob(
        False, "rulebook", "variant: bonus tiles face up, chosen in reverse turn order after the era-1 set-up"
    )
    gods_per_era_extra: int = knob(1, "rulebook", "gods revealed per era: players + this", range=(0, None))
    loot_per_era_extra: int = knob(1, "rulebook", "loot tiles placed per era: players + this", range=(0, None))
    nations_in_deck: int = knob(
        8, "rulebook", "nation cards in the shuffled deck (one is revealed per era)", range=(1, 8)
    )
    # -- cards --------------------------------------------------------------------------------------------
    movement_cards: int = knob(16, "rulebook", "movement cards in the action deck", range=(0, None))
    sacrifice_cards: tuple[int, ...] = knob(
        (11, 11, 11, 11),
        "derived",
        "sacrifice cards per kind (gifts, priests, dancers, temples); only the total 44 is printed",
    )
    money_cards: int = knob(15, "rulebook", "money-1 cards in the action deck", range=(0, None))
    special_money: tuple[int, ...] = knob(
        (2, 2, 2, 1), "rulebook", "special money cards of value 2, 3, 4, 5 (open stack, ascending)"
    )
    movement_card_steps: int = knob(2, "rulebook", "steps per movement card", range=(1, None))
    # -- sacrifice tiles ----------------------------------------------------------------------------------
    sacrifice_tile_cost: tuple[int, ...] = knob(
        (1, 3, 6, 10), "placeholder", "printed cost of a sacrifice tile of level 1..4 (1, 3, 6 stated; 10 guessed)"
    )
    tiles_per_pile: int = knob(4, "derived", "tiles in each kind's level-1/2 pile and level-3/4 pile", range=(1, None))
    # -- movement and purchases --------------------------------------------------------------------------
    big_foot_steps: int = knob(1, "rulebook", "steps the big foot gives the mover", range=(0, None))
    occupied_extra: int = knob(
        1, "rulebook", "extra steps (or money) to place on a hex holding another player's piece", range=(0, None)
    )
    hex_capacity: int = knob(2, "rulebook", "most pieces on a hex (from different players)", range=(1, None))
    piece_cost: int = knob(1, "rulebook", "money per foot or column bought from the general supply", range=(0, None))
    place_cost: int = knob(1, "rulebook", "money per foot or column placed in a purchase", range=(0, None))
    purchase_takes_loot: bool = knob(True, "rulebook", "a foot placed in a purchase takes the loot of its hex")
    jump_reached_connected: bool = knob(
        True, "assumption", "pieces reached only by a Gaiviles jump count as connected for later placements (§10)"
    )
    feet_on_starts: bool = knob(
        True, "assumption", "feet may stand on other nations' start spaces (never on the active temple) (§10)"
    )
    # -- scoring -----------------------------------------------------------------------------------------
    era_points: tuple[int, ...] = knob(
        (1, 2, 3, 4, 5, 6), "rulebook", "points per god gained in era 1..6", range=(0, None)
    )
    era_end_bonus: int = knob(3, "rulebook", "points to the player whose turn ended the era", range=(0, None))
    column_points: tuple[int, ...] = knob(
        (0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4),
        "rulebook",
        "points per own column at a scoring, by the owner's number of columns on the board (0..12)",
    )
    pietalte_points_highest_level: bool = knob(
        True,
        "derived",
        "each Pietalte scores the owner's highest sacrifice-tile level (False: the sum of levels) (§10)",
    )
    # -- §10 ambiguities ---------------------------------------------------------------------------------
    depraccus_cards: int = knob(
        2, "rulebook", "cards drawn per Depraccus at the end of each era set-up", range=(0, None)
    )
    depraccus_stacks: bool = knob(True, "assumption", "several Depraccus draw their cards each (§10)")
    bonus_god_era_points: int = knob(
        1, "assumption", "era points of a god from the bonus tile, gained before era 1 (§10)"
    )
    cartago_before_temple: bool = knob(
        True, "rulebook", "Cartago's purchase comes before the temple is placed, so it can place no piece (§10)"
    )
    cartago_money: int = knob(2, "rulebook", "money Cartago lets each player spend", range=(0, None))
    gallia_cards: int = knob(2, "rulebook", "cards Gallia's first option draws from the deck", range=(0, None))
    gallia_plaesiris_reveals: bool = knob(
        True, "assumption", "a Plaesiris flipped by Gallia turns 2 demigods face up like one revealed in set-up (§10)"
    )
    plaesiris_demigods: int = knob(
        2, "rulebook", "demigods a Plaesiris gives (and turns face up when revealed)", range=(0, None)
    )
    demigods_low_values: int = knob(
        3, "rulebook", "demigods of value 1..this are shuffled on top of the stack", range=(0, 6)
    )
    face_up_demigod_newest_first: bool = knob(
        True, "assumption", "the 'top' face-up demigod is the newest revealed (False: the oldest) (§10)"
    )
    traitera_after_era_end: bool = knob(
        True, "assumption", "Traitera's extra action is taken even after the first action ended the era (§10)"
    )
    era_turn_limit: int = knob(
        300,
        "assumption",
        "turns after which an era ends though neither the last loot nor the last face-up god has left (no bonus; "
        "0: no limit). The rules end an era only when players take them, so play that never does would not end; "
        "heuristic bots take at most ~41 turns, random ones ~133",
        range=(0, None),
    )
    hand_to_cards: int = knob(7, "rulebook", "hand size Germania and Graecia set", range=(0, None))
    roma_cards: int = knob(2, "rulebook", "cards Roma lets each player draw from the deck", range=(0, None))
    draw_action_cards: int = knob(3, "rulebook", "cards drawn in the draw action (+1 per Gadicea)", range=(0, None))
    join_draw_cards: int = knob(1, "rulebook", "cards a player draws instead of joining a movement", range=(0, None))
    # -- experiment knobs (the interventions of simlab.games.pantheon.facts) ------------------------------
    start_points: tuple[int, ...] = knob(
        (0, 0, 0, 0),
        "intervention",
        "experiment knob: points each seat starts with (the rulebook: 0 for all)",
        hash_default=False,
        range=(0, None),
    )
    extra_start_feet: tuple[int, ...] = knob(
        (0, 0, 0, 0),
        "intervention",
        "experiment knob: feet each seat takes from its general supply into its stock at set-up, on top of the "
        "start stock (the compensation unit; negative returns feet to the supply)",
        hash_default=False,
    )
    start_god: str = knob(
        "none",
        "intervention",
        "experiment knob: a god (by key, e.g. stonkus) whose topmost tile in the stack start_god_seat gains "
        "before era 1, like a bonus-tile god (bonus_god_era_points and its effect)",
        record=None,
        choices=("none", *GOD_KEYS),
        hash_default=False,
    )
    start_god_seat: int = knob(
        -1,
        "intervention",
        "seat that gains start_god (-1: nobody)",
        record=None,
        hash_default=False,
        range=(0, _last_seat),
        also=(-1,),
    )

    def validate(self) -> None:
        require(
            2 <= self.players <= MAX_PLAYERS,
            f"players must be 2 to {MAX_PLAYERS} (Pantheon is for 2-4 players), got {self.players}",
        )
        require(1 <= self.eras <= 6, f"eras must be 1 to 6 (six nations are revealed), got {self.eras}")
        require(self.eras <= self.nations_in_deck <= 8, f"nations_in_deck must be eras..8, got {self.nations_in_deck}")
        require(
            1 <= len(self.scoring_eras) <= 6 and all(1 <= e <= 6 for e in self.scoring_eras),
            f"scoring_eras must be 1 to 6 eras within 1..6, got {self.scoring_eras}",
        )
        require(len(self.sacrifice_cards) == KINDS, "sacrifice_cards needs 4 counts (gifts, priests, dancers, temples)")
        require(len(self.special_money) == 4, "special_money needs 4 counts (values 2, 3, 4, 5)")
        cost = self.sacrifice_tile_cost
        require(len(cost) == LEVELS, f"sacrifice_tile_cost needs {LEVELS} costs (levels 1..4), got {len(cost)}")
        require(all(b > a for a, b in itertools.pairwise(cost)) and cost[0] >= 0, "sacrifice_tile_cost must rise")
        require(len(self.era_points) == 6, "era_points needs 6 values (eras 1..6)")
        require(len(self.column_points) == 13, "column_points needs 13 values (0..12 columns)")
        require(len(self.stock_feet_by_players) == 3 and len(self.stock_columns_by_players) == 3,
                "stock_feet_by_players and stock_columns_by_players need 3 values (2, 3, 4 players)")  # fmt: skip
        require(0 <= self.start_feet <= self.feet_per_player <= 12, "start_feet must be 0..feet_per_player (<= 12)")
        require(
            0 <= self.start_columns <= self.columns_per_player <= 12,
            "start_columns must be 0..columns_per_player (<= 12)",
        )
        require(self.hex_capacity in (1, 2), f"hex_capacity must be 1 or 2, got {self.hex_capacity}")
        require(1 <= self.display_cards <= 4, f"display_cards must be 1 to 4, got {self.display_cards}")
        deck = self.movement_cards + sum(self.sacrifice_cards) + self.money_cards + sum(self.special_money)
        need = self.players * (self.start_hand + 7) + self.display_cards
        require(deck >= need, f"the card deck ({deck} cards) is too small for {self.players} players")
        require(self.tiles_per_pile >= self.players, "tiles_per_pile must be at least players (one tile per kind each)")
        self.check_experiment_knobs()

        self.check_tables()

    def check_tables(self) -> None:
        """Load the chosen tables and map once (cached): a broken or missing file is a DataFileError naming
        the file, the row or hex and the field."""
        from simlab.games.pantheon import data

        if self.god_tiles not in data.GOD_TILE_TABLES and not self.god_tiles.endswith(".json"):
            raise ConfigError(
                f"god_tiles: unknown table {self.god_tiles!r}; use {', '.join(data.GOD_TILE_TABLES)} or a .json path"
            )
        if self.demigods not in data.DEMIGOD_TABLES and not self.demigods.endswith(".json"):
            raise ConfigError(
                f"demigods: unknown table {self.demigods!r}; use {', '.join(data.DEMIGOD_TABLES)} or a .json path"
            )
        from simlab.games.pantheon.data_check import check_data_files

        check_data_files(self)  # every file loaded (cached), a broken one refused naming it
        tiles = data.god_tiles(self.god_tiles)
        god, _ = self.start_god_index()
        if god >= 0 and tiles.counts()[god] == 0:
            raise ConfigError(f"start_god: {self.start_god!r} has no tiles in the god-tile table {self.god_tiles!r}")

    def check_experiment_knobs(self) -> None:
        n = self.players
        require(
            len(self.start_points) == MAX_PLAYERS,
            f"start_points needs {MAX_PLAYERS} values (one per seat; seats beyond players are ignored), "
            f"got {self.start_points}",
        )
        require(
            len(self.extra_start_feet) == MAX_PLAYERS,
            f"extra_start_feet needs {MAX_PLAYERS} values (one per seat; seats beyond players are ignored), "
            f"got {self.extra_start_feet}",
        )
        feet, _ = self.stock()
        for p in range(n):
            have = feet + self.extra_start_feet[p]
            require(
                0 <= have <= self.feet_per_player,
                f"extra_start_feet[{p}] = {self.extra_start_feet[p]} leaves seat {p} with {have} feet in stock; "
                f"it must be 0..{self.feet_per_player} (start feet {feet})",
            )
        require(
            self.start_god == "none" or self.start_god in GOD_KEYS,
            f"start_god must be 'none' or one of {', '.join(GOD_KEYS)}, got {self.start_god!r}",
        )
        require(
            -1 <= self.start_god_seat < n, f"start_god_seat must be -1 or a seat 0..{n - 1}, got {self.start_god_seat}"
        )

    def start_god_index(self) -> tuple[int, int]:
        """(god type, seat) of the start_god intervention, or (-1, -1) when nobody gains one."""
        if self.start_god == "none" or self.start_god_seat < 0:
            return -1, -1
        return GOD_KEYS.index(self.start_god), self.start_god_seat

    def stock(self) -> tuple[int, int]:
        """(feet, columns) each player starts with in the own stock."""
        if self.start_stock_by_player_count:
            k = self.players - 2
            return self.stock_feet_by_players[k], self.stock_columns_by_players[k]
        return self.start_feet, self.start_columns
