"""The Super Mario Bros. board game (1988), one module per facet (rules.py says which
holds what); the registry loads `rules.SuperMarioBros`."""
