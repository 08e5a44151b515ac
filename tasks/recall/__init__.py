"""Recall: hybrid search over a user's memories and episodes, ranked, and shaped for agents.

``search`` runs the vector and full-text legs on Lance and fuses them (RRF); ``hits`` and
``ranking`` score candidates column-wise; ``recaller`` is the entry point (``Recaller``,
``recall``); ``context`` builds token-budgeted context blocks; ``agent_tools`` the tool schema; ``abstain`` the
calibrated "nothing relevant is known" signal (``Recaller.recall_result``).
"""
