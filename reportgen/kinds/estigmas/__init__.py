"""The `estigmas` kind: the Estigmas benchmark (variants `full` and `continuous`)."""
