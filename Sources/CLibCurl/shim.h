// libcurl (Debian's GnuTLS build): TerrapinNet's HTTP client for remote tiles, styles and
// files. It reports bodies and headers through callbacks, so CTerrapinCurl owns those and Swift
// sees one plain function per request. Headers only: CTerrapinCurl loads the library itself on
// the first request.
#include <curl/curl.h>
