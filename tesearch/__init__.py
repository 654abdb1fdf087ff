"""tesearch: optimal total exchange tables on Cayley networks.

Data flows one way: networks -> groups -> words, rotation, bounds -> encode,
search -> table -> verify and replay -> certificate.
"""

__version__ = "0.1.0"
