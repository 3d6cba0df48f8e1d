"""Monopoly The Super Mario Bros. Movie, one module per facet (rules.py says which holds
what); the registry loads `rules.Monopoly`."""
