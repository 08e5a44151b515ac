"""Consolidate: fold a user's new facts and forget requests into versioned memories, audited.

``engine`` orders one user's sessions and asks the Consolidator provider for each verdict;
``working`` applies verdicts as new versions (never removing rows); ``forgetting`` scrubs what
was forgotten from episodes; ``history`` reads lineages and rolls runs back.
"""
