"""Merchant of Venus (standard game), a model: see docs/games/merchant_of_venus.md and the rules page."""
