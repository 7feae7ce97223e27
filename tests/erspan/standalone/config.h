/*
 * The configuration header for the tests and fuzz targets that compile
 * libpcap/pcap-erspan.c on its own (tests/erspan/t-erspan-unit.sh,
 * t-erspan-filter.sh, the fuzz target "erspan").  The ERSPAN
 * decapsulator needs nothing that configure finds; like every libpcap
 * source file it includes <config.h>, which this is.
 */
