"""From a photo of a kingdom to the board the scorer takes. Never imports streamlit."""
