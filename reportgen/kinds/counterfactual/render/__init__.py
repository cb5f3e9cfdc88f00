"""The counterfactual round's report page (counterfactual-report.md): typed page contexts,
templates that only lay them out, the catalogues, the downloads and the leak guard."""
