"""The Streamlit pages and widgets. They only wire widgets to ``scoring``, ``vision`` and ``games``:
no rule and no pixel code lives here.
"""
