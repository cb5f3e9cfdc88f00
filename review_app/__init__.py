"""The blind review app: human reviewers audit the parser's labels without knowing whose
answer they read, and contestations of items become lines of the annulment ledger."""
