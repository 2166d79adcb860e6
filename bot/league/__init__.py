"""The league: what finished matches leave behind — their replayed records and figures."""
