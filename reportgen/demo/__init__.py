"""Generated demonstration rounds: instrument, label plan, output texts and assembly."""
