// The origin vocabulary (`OriginFetching`, `OriginRequest`, `OriginResponse`, `OriginError`,
// `OriginInterimResponse`, `OriginContact`) is the MediaOrigin module's, a leaf the transport (MediaCurl) imports
// without the pipeline; everything that imports MediaService sees it as before.
@_exported import MediaOrigin
