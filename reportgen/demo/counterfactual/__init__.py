"""The counterfactual demonstration battery (kind `counterfactual`): the customer-service
chatbot of a fictional store, audited before and after a fix; synthetic, fixed seeds."""
