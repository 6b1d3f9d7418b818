// The page (Sources/LiveView/Page): placeholder until the real page lands.
