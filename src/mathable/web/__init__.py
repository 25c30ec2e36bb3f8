"""The web app: thin FastAPI routes (``routes``) with their schemas and dependencies,
over a service layer (``service``) and an event store (``store``); ``api.create_app``
builds it. It renders every game from its view and its game type's capabilities."""
