"""What a build keeps under its folder's .cache between runs: checked content models, laid-out book parts."""
