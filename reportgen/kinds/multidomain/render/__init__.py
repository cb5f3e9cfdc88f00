"""Pages, downloads and leak guard of a multidomain round."""
