"""The web app: FastAPI routes over a service layer over the same engine."""
