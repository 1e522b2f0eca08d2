"""The report's tables, one module per protocol: TRUE's, FELM's and the multilingual FActScore study's."""
