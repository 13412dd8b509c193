// The inflater the one-file element loads on demand (built to web/interquake-inflate.min.js by
// build.sh): fflate's streaming Inflate, and nothing else of it.
export { Inflate } from 'fflate';
