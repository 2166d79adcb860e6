"""The Discord adapter: slash commands, dynamic buttons, ephemeral hands."""
