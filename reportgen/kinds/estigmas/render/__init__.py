"""The Estigmas pages: contexts, tables and charts."""
