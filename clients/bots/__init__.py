"""Bots for both variants behind one small interface (:class:`clients.bots.base.Bot`)."""
