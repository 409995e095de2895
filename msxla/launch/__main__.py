"""``python -m msxla.launch``: msrun (see ``msxla.launch``)."""
from msxla.launch import main

main()
