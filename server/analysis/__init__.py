"""GNU Backgammon's judgement of positions, for the AnalysisService.

:mod:`.gnubg_evaluator` speaks to the ``gnubg`` package, in a worker process only (gnubg crashes
a process that evaluates off its main thread); :mod:`.pool` owns those processes for the server;
:mod:`.questions` turns tavli's positions and game context into what the evaluator is asked.
"""
