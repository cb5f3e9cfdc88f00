"""The review tasks: how a unit is shown, scored, checked and compared. The choice task
(`reviewing`: the queue, a sample's texts, a judgment and its undo), the rubric task
(`rubric`: one score per criterion), the registry of task shapes (`shapes`: a kind's
part brings its own, as the counterfactual `scale`, one score and the mask flag, in its
review package); the task a round's kind declares is found through the registry
(`lookup`)."""
