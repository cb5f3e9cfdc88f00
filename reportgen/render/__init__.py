"""Results -> page contexts -> Markdown, tables, charts and downloads, per language."""
