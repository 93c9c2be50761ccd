"""Charts (``simlab.report.charts``) and, later, the HTML balance report built from them."""
