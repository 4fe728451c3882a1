import MediaCTL
