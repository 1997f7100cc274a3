"""Before a reader: what a file is (``detect``, from its bytes), whether its zip is safe and whole
(``package``: zip bombs refused, damaged parts repaired), the members of a container read as
sections (``members``: limits shared by nested containers), and names made safe to show (``names``)."""
