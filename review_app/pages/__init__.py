"""The Streamlit pages (and the helpers they share): what a reviewer or an administrator
sees. They call the other packages with the session token; `review_app/app.py` is the
entry that shows them."""
