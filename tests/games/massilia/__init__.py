"""Massilia game tests."""
