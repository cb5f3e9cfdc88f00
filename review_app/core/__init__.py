"""The review app's core, which no kind and no task type changes: the database and its
tables, accounts, logins and sessions (with their throttling), the web layer in front of
Streamlit, the audit log and its hash chain, which archive a round is, the ledger lines
the app wrote, and the one module that unblinds a sample (`unblinding`)."""
