"""Roma game tests."""
