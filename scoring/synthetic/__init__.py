"""The synthetic-data round: release a stand-in for a private table, attack the others'
releases by membership inference (spec synthetic-round.md).

Pure maths, like every round kind's scoring folder: the configuration
(:mod:`~scoring.synthetic.config`), the population and its embedding
(:mod:`~scoring.synthetic.population`), the draws (:mod:`~scoring.synthetic.draws`), a
release's checks and scores (:mod:`~scoring.synthetic.release`,
:mod:`~scoring.synthetic.utility`), attacks and their scores
(:mod:`~scoring.synthetic.attack`), the kit's sample release and attack
(:mod:`~scoring.synthetic.kit`) and the command line (:mod:`~scoring.synthetic.cli`).
"""
