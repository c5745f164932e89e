"""The language front end: rules text -> parse tree -> merged settings -> validated model."""
