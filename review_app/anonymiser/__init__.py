"""The anonymiser: the scrubber that masks participants' names and self-identification in
a sample's texts (`anonymise`), the cues and forms it matches, and the leak report of what
may remain (`leaks`)."""
