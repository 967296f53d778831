// GNU libmicrohttpd (TerrapinServe's HTTP/1.1 server). It calls back into its user for every
// request, so CTerrapinHTTP owns those callbacks and Swift sees only plain functions. Headers
// only: CTerrapinHTTP loads the library itself when a server starts.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>
