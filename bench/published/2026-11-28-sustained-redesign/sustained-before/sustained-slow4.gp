set terminal pngcairo size 520,380 font ',9'
set output '/tmp/perf6/out/sustained-before/sustained-slow4.png'
set datafile separator ','
set multiplot layout 1,1 title 'Sustained load, slow4: loss vs offered rate, median of 3 (bars: min-max)'
set logscale x; set xlabel 'frames/s offered'; set ylabel 'loss %'; set yrange [-2:100]; set key top left font ',7'
set title 'http'
plot '/tmp/perf6/out/sustained-before/.sustained-slow4-http-ours-zstd+w.dat' using 1:2:3:4 with yerrorlines title 'ours-zstd+w'
unset multiplot
