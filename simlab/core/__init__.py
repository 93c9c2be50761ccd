"""Game-agnostic kernel: the game/state/bot contracts, seeding, configs and registries."""
