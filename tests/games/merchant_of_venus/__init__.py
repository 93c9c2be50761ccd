"""Merchant of Venus game tests."""
