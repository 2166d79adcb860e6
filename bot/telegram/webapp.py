"""Where Telegram opens the web table: a direct Mini App link for groups, the page itself
for the private chat's ``web_app`` button (core.telegram.org/bots/webapps).

An inline ``web_app`` button is refused in groups (400 BUTTON_TYPE_INVALID), so the group's
button is a URL to ``t.me/<bot>/<short name>?startapp=t<table>`` (or the Main Mini App's
``t.me/<bot>?startapp=…``): one button for everyone, each person who taps it gets their
own signed launch data. ``startapp`` is routing data only: the server seats by user id.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MiniApp:
    page_url: str  # SAHRA_WEB_URL
    short_name: str | None = None  # SAHRA_TELEGRAM_WEBAPP (@BotFather /newapp)

    def group_link(self, username: str, table_id: int) -> str:
        app = f"/{self.short_name}" if self.short_name else ""
        return f"https://t.me/{username}{app}?startapp=t{table_id}"

    def review_link(self, username: str, table_id: int, deal: int) -> str:
        """The group's link to deal ``deal``'s replay: ``startapp=t<table>d<deal>`` (the
        page opens the replay; the server still reads only the table from it)."""
        return f"{self.group_link(username, table_id)}d{deal}"

    def private_url(self, table_id: int) -> str | None:
        """The page for a ``web_app`` button (no ``start_param`` comes with those: the
        table is in the query, routing data again), or None when the page is not served
        over HTTPS: Telegram refuses a ``web_app`` button to anything else, and would
        refuse the private hand it rides on with it."""
        if not self.page_url.startswith("https://"):
            return None
        return f"{self.page_url}/?table={table_id}"
