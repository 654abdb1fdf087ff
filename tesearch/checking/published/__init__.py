"""Transcribed tables of seeds 003 and 004, the papers' constructions, and their regression."""

