# Citation fixes in files other helpers edit at the same time; apply after
# merging with:  sed -i -f cite-fixes.sed <file>   (each line names its file)
# then empty PENDING_SED_FIXES in tests/rules/check_citations.py.
#
# analyzer/include/rpcrdma/ulp.h:115 - RFC 8267 has no §4.4; RFC 8166
# §8.2.2.3 is where a sender MUST NOT reduce under RPCSEC_GSS integrity or privacy.
s|inside a wrap (RFC 8267 §4.4 does not allow DDP then)|inside a wrap (RFC 8166 §8.2.2.3 does not allow DDP then)|
