// tst_cluster: one test class, its slots in tst_cluster.cpp (reference, variants, invariants)
// and tst_cluster_cli.cpp (clscope-cli cluster through the generic algorithm command).
#pragma once
#include <QObject>
#include <QTemporaryDir>
#include <QtTest>

class TestCluster : public QObject {
    Q_OBJECT
  private slots:
    void chargeCutParsing();
    void moduleGroupsBySize();
    void handMadeCases();
    void duplicates();
    void chargeCutThresholds();
    void badInput();
    void cmsswCases_data();
    void cmsswCases();
    void variantsOnEdgeCases_data();
    void variantsOnEdgeCases();
    void randomEvents_data();
    void randomEvents();
    void shuffledInputSamePartition();
    void commandLine_data();
    void commandLine();
    void commandLineParamsReproduce();
    void commandLineErrors();
    void commandLineGenerated();
    void commandLineSeveralDevices();
    void splitDealsLargestModules();
    void commandLineBenchEvents();

  private:
    QTemporaryDir tmp;
};
