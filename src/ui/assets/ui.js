// The web interface's small script: nothing here is needed to read or submit a page.
